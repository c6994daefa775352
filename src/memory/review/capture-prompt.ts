/**
 * Capture's one model call, the pure parts: what the summarizer is asked (the session's transcript,
 * the working state so far, the active memory items it may update) and how its answer is read.
 * One call yields the title, the summary, the working state and the memory candidates, so a capture
 * costs one request. The answer is plain labelled sections rather than JSON: small local models
 * keep to them better, and a plain `fact: …` answer (the :memory summarize format) still parses.
 */
import type { ChatMessage } from '../../broker/types';
import type { Turn } from '../../sessions/types';
import { oneLine } from '../../util/text';
import { originTag, promptText } from '../background/blocks';
import { blankState, hasState, renderWorkingState, type WorkingState } from '../../sessions/digest';
import { buildTranscript, KEYS_INSTRUCTION, MAX_CANDIDATES, parseCandidates, type Candidate } from './summarize';
import type { MemoryItem } from '../types';

/** Transcript budget in characters: the first user turn (the goal, usually) plus the newest turns. */
const CAPTURE_TRANSCRIPT_LIMIT = 48 * 1024;
/** Active items shown to the summarizer so it can say which one a candidate supersedes. */
export const RELATED_ITEMS = 30;

export const CAPTURE_INSTRUCTION = [
  'You keep the notes of a terminal chat session between a developer and an AI shell.',
  'Read the transcript (and the working state so far, if given) and answer with exactly these sections, nothing else:',
  'TITLE: one line, at most 8 words, naming what the session is about',
  'SUMMARY: two or three sentences',
  'GOAL: what the user is trying to achieve',
  'CURRENT: where the work stands now',
  'DECISIONS:',
  '- one line per decision taken (none: leave the section empty)',
  'OPEN QUESTIONS:',
  '- …',
  'NEXT STEPS:',
  '- …',
  'FILES:',
  '- one path per line, files touched or discussed',
  'MEMORY:',
  '- fact: … | pref: … | context: …  (at most 10 lines: stable facts about the user, their environment or project; their preferences for how the assistant should work; project context useful in future sessions)',
  'In MEMORY leave out anything only relevant to this session, and never include passwords, keys or tokens.',
  'When a memory line updates or contradicts one of the numbered existing items, end it with "(supersedes #N)".',
  'An existing item labelled (from …), (team: …), (imported: …) or (agent: …) was not written by the user: never restate it as theirs.',
  KEYS_INSTRUCTION,
  'Keep earlier decisions and the goal from the working state unless the transcript changed them.',
].join('\n');

export interface CaptureRequestParts {
  turns: readonly Turn[];
  previous?: WorkingState | undefined;
  /** Active items the candidates may update (numbered by id). */
  related: readonly MemoryItem[];
}

/** The transcript: the session's first user turn is always kept (it usually states the goal). */
export function captureTranscript(turns: readonly Turn[], limit = CAPTURE_TRANSCRIPT_LIMIT): string {
  const firstUser = turns.findIndex((t) => t.role === 'user' && !t.meta && typeof t.content === 'string');
  if (firstUser < 0) return buildTranscript(turns, limit).text;
  const head = buildTranscript([turns[firstUser]!], Math.floor(limit / 4)).text;
  const rest = buildTranscript(turns.slice(firstUser + 1), Math.max(1024, limit - head.length - 1)).text;
  return rest ? `${head}\n${rest}` : head;
}

export function captureMessages(p: CaptureRequestParts): ChatMessage[] {
  const parts: string[] = [];
  if (p.previous && hasState(p.previous)) parts.push(`Working state so far:\n${renderWorkingState(p.previous)}`);
  if (p.related.length)
    parts.push(
      `Existing memory items:\n${p.related.map((it) => `#${it.id} ${originTag(it)}(${it.kind}) ${oneLine(promptText(it.content), 300)}`).join('\n')}`,
    );
  parts.push(`Transcript:\n${captureTranscript(p.turns)}`);
  return [
    { role: 'system', content: CAPTURE_INSTRUCTION },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

export interface CaptureCandidate extends Candidate {
  /** Memory id the summarizer said this one supersedes. */
  supersedes?: number;
}

export interface CaptureAnswer {
  title?: string;
  summary?: string;
  /** Undefined when the answer had no working-state section. */
  state?: WorkingState;
  candidates: CaptureCandidate[];
}

type Section = 'title' | 'summary' | 'goal' | 'current' | 'decisions' | 'openQuestions' | 'nextSteps' | 'filesTouched' | 'memory';
const HEADERS: Array<[RegExp, Section]> = [
  [/^title$/, 'title'],
  [/^summary$/, 'summary'],
  [/^goal$/, 'goal'],
  [/^(current( state)?|status|state)$/, 'current'],
  [/^decisions?$/, 'decisions'],
  [/^open questions?$/, 'openQuestions'],
  [/^next steps?$/, 'nextSteps'],
  [/^files?( touched)?$/, 'filesTouched'],
  [/^(memory|memories|memory candidates)$/, 'memory'],
];
// `TITLE: x`, `**Title:** x`, `## Next steps`, `**Open questions**`
const LABELLED = /^[*_]*\s*([A-Za-z][A-Za-z ]{0,30}?)\s*[*_]*\s*:\s*[*_]*\s*(.*)$/;
const ALONE = /^[*_]*\s*([A-Za-z][A-Za-z ]{0,30}?)\s*[*_]*\s*$/;
const BULLET = /^\s*(?:[-*•+]|\d{1,2}[.)])\s+(.*\S)\s*$/;
const SUPERSEDES = /\s*[([]?\s*supersedes\s*(?:item\s*)?#?\s*(\d{1,15})\s*[)\]]?\s*\.?\s*$/i;
const NONE = /^(none|n\/a|nothing|-+|—)\.?$/i;

function headerOf(line: string): { section: Section; rest: string } | undefined {
  if (BULLET.test(line)) return undefined;
  const heading = /^\s*#{1,6}\s*/.exec(line);
  const t = line.slice(heading ? heading[0].length : 0).trim();
  const m = LABELLED.exec(t) ?? (heading || /^[*_]/.test(t) ? ALONE.exec(t) : null);
  if (!m) return undefined;
  const name = m[1]!.trim().toLowerCase();
  const hit = HEADERS.find(([re]) => re.test(name));
  return hit && { section: hit[1], rest: (m[2] ?? '').trim() };
}

function clean(s: string): string {
  return s.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
}

export function parseCapture(answer: string): CaptureAnswer {
  const lists: Record<Section, string[]> = {
    title: [],
    summary: [],
    goal: [],
    current: [],
    decisions: [],
    openQuestions: [],
    nextSteps: [],
    filesTouched: [],
    memory: [],
  };
  let section: Section | null = null;
  let sawState = false;
  for (const raw of answer.split('\n')) {
    const h = headerOf(raw);
    if (h) {
      section = h.section;
      if (section !== 'title' && section !== 'summary' && section !== 'memory') sawState = true;
      if (h.rest) lists[section].push(h.rest);
      continue;
    }
    if (!section || !raw.trim()) continue;
    const b = BULLET.exec(raw);
    lists[section].push(b ? b[1]! : raw.trim());
  }
  const text = (k: Section) => clean(lists[k].join(' '));
  const items = (k: Section) => lists[k].map(clean).filter((x) => x && !NONE.test(x));
  // Candidates: the MEMORY section when there is one, else any `kind: text` line (summarize's format).
  const memoryText = lists.memory.length ? lists.memory.map((l) => `- ${l}`).join('\n') : answer;
  const candidates = parseCandidates(memoryText, MAX_CANDIDATES).map((c): CaptureCandidate => {
    const m = SUPERSEDES.exec(c.content);
    if (!m) return c;
    const content = c.content.slice(0, m.index).trim();
    return { ...c, content: content || c.content, supersedes: Number(m[1]) };
  });
  const out: CaptureAnswer = { candidates };
  const title = oneLine(text('title'), 80);
  if (title) out.title = title;
  const summary = text('summary');
  if (summary) out.summary = summary.slice(0, 1000);
  if (sawState) {
    const s = blankState();
    s.goal = text('goal').slice(0, 500);
    s.current = text('current').slice(0, 1000);
    s.decisions = items('decisions').slice(0, 20);
    s.openQuestions = items('openQuestions').slice(0, 20);
    s.nextSteps = items('nextSteps').slice(0, 20);
    s.filesTouched = items('filesTouched').slice(0, 40);
    if (hasState(s)) out.state = s;
  }
  return out;
}
