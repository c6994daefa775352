/** The configuration: what a config file may set, and the defaults. `config.example.ts` documents every key. */

export interface ModelPreset {
  /** Model name sent to the server, e.g. "gpt-4o-mini" or "llama3.1:8b". */
  model: string;
  /** OpenAI-compatible endpoint, e.g. "http://localhost:11434/v1". Default: $OPENAI_BASE_URL or OpenAI. */
  baseURL?: string;
  /** Environment variable holding the key. Default: "OPENAI_API_KEY". */
  apiKeyEnv?: string;
  /** Literal key (prefer apiKeyEnv so the key stays out of files). */
  apiKey?: string;
  /** Cap on the answer's tokens, sent as `max_tokens` (see maxTokensParam). */
  maxTokens?: number;
  /**
   * The field maxTokens is sent as. Default: `max_completion_tokens` for OpenAI's reasoning models
   * (names starting o1, o3, o4… or gpt-5, which refuse `max_tokens`), `max_tokens` for all others.
   */
  maxTokensParam?: MaxTokensParam;
  temperature?: number;
  /** Sent as `top_p`. */
  topP?: number;
  /** Fields merged into each request body for server-specific options (not model, messages, stream, tools). */
  extraBody?: Record<string, unknown>;
  /** Request timeout and stream idle timeout, in milliseconds. */
  timeoutMs?: number;
  /** USD per million tokens, for the session cost on the status line and in `:usage`. */
  price?: { input: number; output: number };
}

export type MaxTokensParam = 'max_tokens' | 'max_completion_tokens';

export interface McpServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  disabled?: boolean;
}

export interface MemoryConfig {
  /** Default: <data dir>/memory.jsonl */
  path?: string;
  /** Budget of the [background] block, in characters. */
  injectMaxChars: number;
  /** Preset used by :memory summarize. Default: the active preset. */
  summarizerModel?: string;
  /** Tombstone items older than this at startup. Unset: never. */
  pruneOlderThanDays?: number;
  /** The per-turn [recall] block. */
  recall: RecallConfig;
  /**
   * Background capture of memory candidates, session titles and the working state: 'ask' (default)
   * also says at quit how many candidates wait for `:memory review`; 'auto' does not; 'off' makes no
   * model call at all.
   */
  capture: CaptureMode;
  /** User turns since the last capture before capture runs (short sessions cost no model call). */
  captureMinTurns: number;
  /** Sync with a git repository (docs/memory-sync.md). Unset: this store stays on this machine. */
  sync?: SyncConfig;
  /** Teammates' items in the project's `.aish/memory/`: sent after a review ('review', default), always ('trust'), never read ('off'). */
  team: TeamMode;
  /** Other agents over `aish mcp`: their proposals wait for review ('review', default), are written directly ('trust'), or no tool exists ('off'). */
  agents: TeamMode;
}

export interface SyncConfig {
  /** A git URL or a path to a repository (a bare one made with `git init --bare`). */
  remote: string;
  /** 'start' (default): sync in the background once the first prompt is drawn. */
  auto: 'start' | 'off';
  /** This machine's label in the repository (shown beside items it sent). */
  name?: string;
}

export type TeamMode = 'review' | 'trust' | 'off';
export const TEAM_MODES: readonly TeamMode[] = ['review', 'trust', 'off'];

export type CaptureMode = 'off' | 'ask' | 'auto';
export const CAPTURE_MODES: readonly CaptureMode[] = ['off', 'ask', 'auto'];

export interface RecallConfig {
  /** false: no [recall] block (the [background] block stays). */
  enabled: boolean;
  /** Budget of the [recall] block, in characters, header included. */
  maxChars: number;
  /** BM25 relevance an item needs to be recalled. */
  minScore: number;
  /** At most this many items in [recall] (absent: 10, memory/recall/recall-cut.ts's MAX_ITEMS). */
  maxItems?: number;
  /** The user's word groups: each key means the same as each word or phrase of its list ("login": ["auth", "sign in"]). */
  synonyms?: Record<string, string[]>;
  /** Hybrid recall: items and messages embedded by an OpenAI-compatible server (docs/recall-embeddings.md). Unset: words only. */
  embeddings?: EmbeddingsConfig;
}

export interface EmbeddingsConfig {
  /** Embedding model sent to `/v1/embeddings`, e.g. "text-embedding-3-small" or "nomic-embed-text". */
  model: string;
  /** The preset whose baseURL and key are used. Default: the preset aish starts with. */
  preset?: string;
  /** How long a turn waits for its message's vector before it goes out with the words ranking alone (default 300 ms). */
  timeoutMs?: number;
  /** Ask for vectors this long (OpenAI's text-embedding-3 models can shorten theirs): a smaller cache and a faster scan. Default: the model's. */
  dimensions?: number;
  /** Cosine similarity an item found by meaning alone needs (default 0.5; unrelated text scores below it). */
  minSimilarity?: number;
}

export interface AishConfig {
  defaultModel: string;
  models: Record<string, ModelPreset>;
  history: { dir?: string };
  /** maxFileBytes: the largest file an `@path` in a prompt attaches. */
  context: { maxTokens: number; maxFileBytes: number };
  memory: MemoryConfig | false;
  mcp: { servers: Record<string, McpServerConfig> };
  safety: SafetyConfig;
  norris: { maxSteps: number };
  /** The REPL's line-editing keys. */
  editor: { keys: EditorKeys };
}

export const EDITOR_KEYS = ['emacs', 'vi'] as const;
type EditorKeys = (typeof EDITOR_KEYS)[number];

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface SafetyConfig {
  confirmCommands: boolean;
  extraDestructivePatterns: Array<string | RegExp>;
  /** Run Norris steps and auto-approved commands in a sandbox: when one is available, always, or never. */
  sandbox: SandboxMode;
  /** Let sandboxed commands a person approved reach the network (unasked ones never do). */
  sandboxNetwork: boolean;
  /** Environment variables kept for tool steps although their names look secret (`NAME`, or `PREFIX*`). */
  passEnv: string[];
  /** Snapshot the working tree before a step that may write, for :restore. */
  checkpoints: boolean;
  /** Command rules, in order: "allow …", "ask …", "deny …" (docs/rules.md). */
  rules: string[];
}

/** What a user writes: every key optional, nested objects partial. */
export interface UserConfig {
  defaultModel?: string;
  models?: Record<string, ModelPreset>;
  history?: { dir?: string };
  context?: { maxTokens?: number; maxFileBytes?: number };
  memory?: Partial<MemoryConfig> | false;
  mcp?: { servers?: Record<string, McpServerConfig> };
  safety?: Partial<SafetyConfig>;
  norris?: { maxSteps?: number };
  editor?: { keys?: EditorKeys };
}

export const DEFAULT_CONFIG: AishConfig = {
  defaultModel: 'fast',
  models: {
    fast: { model: 'gpt-4o-mini' },
    deep: { model: 'gpt-4o' },
  },
  history: {},
  context: { maxTokens: 8000, maxFileBytes: 256 * 1024 },
  memory: {
    injectMaxChars: 2000,
    recall: { enabled: true, maxChars: 1200, minScore: 2 },
    capture: 'ask',
    captureMinTurns: 4,
    team: 'review',
    agents: 'review',
  },
  mcp: { servers: {} },
  safety: {
    confirmCommands: true,
    extraDestructivePatterns: [],
    sandbox: 'auto',
    sandboxNetwork: false,
    passEnv: [],
    checkpoints: true,
    rules: [],
  },
  norris: { maxSteps: 8 },
  editor: { keys: 'emacs' },
};
