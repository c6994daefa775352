/**
 * `:memory summarize`, the pure parts: the transcript comes from the session
 * log with earlier summarize turns left out, the model's answer is parsed for `kind: text` lines,
 * and candidates that repeat an active item are recognised.
 */
import type { ChatMessage } from '../../broker/types';
import type { Turn } from '../../sessions/types';
import { normalize } from './duplicates';
import { keyList } from '../key-list';
import { isMemoryKind, type MemoryKind } from '../types';

const TRANSCRIPT_LIMIT = 64 * 1024;
export const MAX_CANDIDATES = 10;

/** Asked of the summarizer with each candidate (here and in capture-prompt.ts). */
export const KEYS_INSTRUCTION =
  'End each candidate with `(keys: …)`: two to five other words someone might later use to ask about it (synonyms, abbreviations, the tool or topic), comma-separated.';

const SUMMARIZE_INSTRUCTION = [
  'Read the following conversation transcript. Extract facts, preferences, or context worth remembering across future sessions:',
  'stable facts about the user, their environment or project; their preferences for how the assistant should work; project context that helps with future tasks.',
  'Leave out anything only relevant to this conversation, and never include passwords, keys or tokens.',
  'Output ONE candidate per line, prefixed with the kind: `fact: …`, `pref: …`, or `context: …`. Maximum 10 candidates. Output nothing else.',
  KEYS_INSTRUCTION,
].join('\n');

export interface Candidate {
  kind: MemoryKind;
  content: string;
  /** Search words the model proposed beside the text (`(keys: …)`). */
  keys?: string[];
}

// `(keys: a, b)` or `[keys: a, b]`, anywhere in a candidate line.
const KEYS = /\s*[([]\s*keys?\s*:\s*([^)\]]*)[)\]]/i;

/** The candidate's text without its `(keys: …)` part, and the keys (key-list.ts). */
export function splitKeys(text: string): { content: string; keys?: string[] } {
  const m = KEYS.exec(text);
  if (!m) return { content: text };
  const content = (text.slice(0, m.index) + text.slice(m.index + m[0].length)).trim();
  const keys = keyList(m[1]!);
  return keys.length ? { content, keys } : { content };
}

function turnLine(t: Turn): string | null {
  if (t.meta === 'summarize' || t.meta === 'error') return null;
  const body = (t.content ?? '').trim();
  const calls = t.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ');
  if (!body && !calls) return null;
  const who = t.role === 'tool' ? 'tool result' : t.role;
  return `${who}: ${[body, calls ? `[calls ${calls}]` : ''].filter(Boolean).join(' ')}`;
}

/** The conversation as text, newest kept when over `limit` characters. */
export function buildTranscript(turns: readonly Turn[], limit = TRANSCRIPT_LIMIT): { text: string; omitted: number } {
  const lines = turns
    .filter((t) => t.role !== 'system')
    .map(turnLine)
    .filter((l): l is string => l !== null);
  const kept: string[] = [];
  let size = 0;
  let omitted = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (size + l.length + 1 > limit) {
      if (kept.length === 0) {
        kept.push('…' + l.slice(l.length - (limit - 1))); // the newest turn alone is too big: keep its end
        omitted = i;
      } else omitted = i + 1;
      break;
    }
    kept.push(l);
    size += l.length + 1;
  }
  kept.reverse();
  return { text: (omitted ? `[${omitted} earlier turn${omitted === 1 ? '' : 's'} left out]\n` : '') + kept.join('\n'), omitted };
}

export function summarizeMessages(transcript: string): ChatMessage[] {
  return [
    { role: 'system', content: SUMMARIZE_INSTRUCTION },
    { role: 'user', content: `Transcript:\n${transcript}` },
  ];
}

// `- fact: …`, `* pref: …`, `1. context: …`, `**fact**: …`, with or without the bullet.
const LINE = /^\s*(?:[-*•+]|\d{1,2}[.)])?\s*\**_?\s*(fact|pref|preference|context)\s*_?\**\s*:\s*\**\s*(.+?)\s*$/i;

export function parseCandidates(answer: string, max = MAX_CANDIDATES): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const line of answer.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const k = m[1]!.toLowerCase() === 'preference' ? 'pref' : m[1]!.toLowerCase();
    const split = splitKeys(m[2]!);
    const content = split.content.replace(/^["'`]+|["'`]+$/g, '').trim();
    if (!isMemoryKind(k) || !content) continue;
    const key = normalize(content);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: k, content, ...(split.keys && { keys: split.keys }) });
    if (out.length >= max) break;
  }
  return out;
}
