/**
 * aish configuration — every key, with its default.
 *
 * Copy to ~/.config/aish/config.ts (or point --config / $AISH_CONFIG at it) and keep what you
 * change. A missing file means these defaults; OPENAI_API_KEY and OPENAI_BASE_URL work with no
 * config at all. A mistake exits with status 2 naming the file, the key and what was expected.
 */
import { defineConfig } from 'aish';

export default defineConfig({
  // Preset used at start; `aish -m NAME` and `:model NAME` switch. Default: "fast"
  // (or the first preset when you define your own `models`).
  defaultModel: 'fast',

  // Model presets. Each may point at any OpenAI-compatible server.
  models: {
    fast: {
      model: 'gpt-4o-mini', // required: the model name the server knows
      // baseURL: 'https://api.openai.com/v1', // default: $OPENAI_BASE_URL, else OpenAI
      // apiKeyEnv: 'OPENAI_API_KEY',          // default: OPENAI_API_KEY; local servers need none
      // apiKey: '…',                          // a literal key; prefer apiKeyEnv
      // Generation settings: each one unset is not sent (the server's default applies).
      // maxTokens: 4096,                       // cap on each answer's tokens: bounds a local model that
      //                                        // would ramble to its context limit
      // maxTokensParam: 'max_tokens',          // the field maxTokens is sent as: 'max_tokens', or
      //                                        // 'max_completion_tokens' (default for OpenAI's o1/o3/o4…
      //                                        // and gpt-5 models, which refuse max_tokens)
      // temperature: 0.2,                      // 0..2
      // topP: 0.9,                             // 0..1, sent as top_p
      // extraBody: { repetition_penalty: 1.1 }, // merged into each request, for server-specific fields;
      //                                        // model, messages, stream and tools are aish's own
      // timeoutMs: 60000,                      // request and stream-idle timeout, default 60000
      // price: { input: 0.15, output: 0.6 },  // USD per million prompt/completion tokens: the session
      //                                        // cost on the status line and in :usage; default: none
    },
    deep: { model: 'gpt-4o' },
    // local: { model: 'llama3.1:8b', baseURL: 'http://localhost:11434/v1' }, // Ollama
    // studio: { model: 'qwen2.5-coder', baseURL: 'http://localhost:1234/v1' }, // LM Studio
  },

  // Where sessions/, memory.jsonl and input-history live. Default: $AISH_DATA_DIR, else
  // $XDG_DATA_HOME/aish (~/.local/share/aish). --data-dir wins over all. Relative paths are
  // relative to this file.
  history: {
    // dir: '~/.local/share/aish',
  },

  context: {
    maxTokens: 8000, // sliding-window budget for the conversation, in tokens; the system prompt is always kept
    maxFileBytes: 262144, // the largest file `@path` in a prompt attaches (256 KB); a larger one is refused
  },

  // Cross-session memory. `memory: false` turns injection and the :memory commands off.
  memory: {
    // path: '~/.local/share/aish/memory.jsonl', // default: <data dir>/memory.jsonl
    injectMaxChars: 2000, // budget of the [background] block in the system prompt (header included)
    // Per turn, the items most relevant to your message (BM25 × recency) that [background] left
    // out are attached to the message sent to the model as a [recall] block.
    recall: {
      enabled: true,
      maxChars: 1200, // budget of the [recall] block (header included)
      minScore: 2, // BM25 relevance an item needs; raise it for fewer, surer recalls
      // maxItems: 6, // at most this many items per turn
      // Your own words that mean the same, beside the built-in ones (k8s, db, auth, prod, PR, CI, …):
      // each key matches each word or phrase of its list, and they it (up to 3 words each).
      // synonyms: { login: ['sso', 'sign on'], billing: ['invoices', 'stripe'] },
      // Hybrid recall: items are embedded in the background by any OpenAI-compatible /v1/embeddings
      // server, and each turn's ranking by words is fused with one by meaning. Unset: words only.
      // embeddings: {
      //   model: 'text-embedding-3-small', // or 'nomic-embed-text' on Ollama
      //   preset: 'fast', // the preset whose baseURL and key are used; default: the one aish starts with
      //   timeoutMs: 300, // a message not embedded within this goes out with the words ranking alone
      //   minSimilarity: 0.5, // cosine an item found by meaning alone needs
      //   dimensions: 256, // ask for shorter vectors (OpenAI text-embedding-3-*): smaller cache, faster turns
      // },
    },
    // After a few turns, at :clear, when old turns leave the window and at quit, the summarizer
    // reads the session in the background: memory candidates go to inbox.jsonl for :memory review
    // (never straight into memory), and the session gets a title and a working state for aish -c.
    capture: 'ask', // 'ask': at quit, say how many candidates wait; 'auto': the same, silently; 'off': no model call
    captureMinTurns: 4, // user turns since the last capture before another runs
    // Teammates' items committed in the project's .aish/memory/ (written by :memory share):
    // 'review': sent only once accepted in :memory review; 'trust': always; 'off': never read.
    team: 'review',
    // Other agents (Claude Code, Codex, Antigravity, Cursor) using this memory over `aish mcp`:
    // 'review': what they propose waits for :memory review; 'trust': written directly; 'off': no memory tools.
    agents: 'review',
    // Memory on several machines, through a git repository you own (README, "Memory on several
    // machines"): run `aish memory sync`, or let aish sync in the background at start.
    // sync: {
    //   remote: '~/sync/aish-memory.git', // a git URL (git@host:me/mem.git, https://…) or a path; `git init --bare` one
    //   auto: 'start', // 'start' (default): sync in the background once the first prompt is drawn; 'off': only when asked
    //   name: 'laptop', // this machine's label in the repository and beside the items it sent
    // },
    // summarizerModel: 'fast', // preset for :memory summarize and capture; default: the active preset
    // pruneOlderThanDays: 90,  // forget items older than this at start; default: never
  },

  // MCP servers (stdio). Their tools are offered to the model as server__tool.
  mcp: {
    servers: {
      // everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
      // fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: {}, cwd: '.', disabled: false },
    },
  },

  // Safety gate for commands the model wants to run.
  safety: {
    confirmCommands: true, // ask before every run_command in chat mode
    extraDestructivePatterns: [], // more regular expressions (or strings) that count as destructive
    sandbox: 'auto', // 'auto': Norris steps and auto-approved commands run sandboxed when a sandbox exists
    //                  (bubblewrap on Linux); 'required': refuse to run them without one; 'off': never
    sandboxNetwork: false, // let sandboxed commands you approved reach the network (unasked steps never do)
    passEnv: [], // variables tool steps keep although their names look secret, e.g. ['NPM_TOKEN', 'AWS_*']
    checkpoints: true, // snapshot the working tree before a step that may write (:checkpoints, :restore)
    // Command rules, strictest match wins (deny > ask > allow); wrappers such as sudo, env, xargs,
    // sh -c are looked through. `aish rules check "CMD"` shows which rule decides (docs/rules.md).
    rules: [
      // 'deny git push',
      // 'ask docker',
      // 'allow npm run test',
    ],
  },

  // Norris mode: autonomous work toward a goal.
  norris: { maxSteps: 8 },

  // Line-editing keys in the REPL: 'emacs' (readline's defaults) or 'vi' (Esc for normal mode;
  // `:set keys vi` switches for the running session). Keys: docs/repl.md.
  editor: { keys: 'emacs' },
});
