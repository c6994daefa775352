/**
 * A long-conversation corpus, built the same way on every run (seeded): two people talking over
 * many sessions, one memory item per turn (`[8 May, 2023] Name: text`, ts = the session's date), and
 * questions of four kinds whose evidence turns are known (conversation-events.ts).
 */
import { rng } from '../recall';
import { EVENTS, FILLER, NAMES, type EventKind } from './conversation-events';

interface ConvTurn {
  content: string;
  /** ISO time: the session's date. */
  ts: string;
  session: number;
}

interface ConvQuestion {
  kind: EventKind;
  text: string;
  /** Indexes into the conversation's turns. */
  evidence: number[];
}

export interface Conversation {
  speakers: readonly [string, string];
  turns: ConvTurn[];
  questions: ConvQuestion[];
}

export interface ConversationOptions {
  conversations?: number;
  seed?: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_MS = 86_400_000;

/** `8 May, 2023`, as the benchmark dates its turns. */
const dateLabel = (t: number) => {
  const d = new Date(t);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
};

export function buildConversations(o: ConversationOptions = {}): Conversation[] {
  const out: Conversation[] = [];
  for (let c = 0; c < (o.conversations ?? 5); c++) out.push(conversation(rng((o.seed ?? 1) * 7919 + c), NAMES[c % NAMES.length]!));
  return out;
}

function conversation(rand: () => number, speakers: readonly [string, string]): Conversation {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const sessions = int(22, 28);
  const dates: number[] = [];
  let t = Date.parse('2023-05-08T13:00:00Z');
  for (let s = 0; s < sessions; s++) {
    dates.push(t + int(0, 8) * 3_600_000);
    t += int(5, 12) * DAY_MS;
  }
  const lengths = Array.from({ length: sessions }, () => int(20, 30));
  // Slots taken by planted turns: `${session}:${turn}` → text.
  const planted = new Map<string, string>();
  const who = new Map<string, number>();
  const questions: { kind: EventKind; text: string; slots: string[] }[] = [];
  const freeSlot = (s: number, speaker: number): string => {
    for (;;) {
      const turn = int(1, lengths[s]! - 1);
      const key = `${s}:${turn}`;
      if (turn % 2 === speaker && !planted.has(key)) return key;
      if (turn % 2 !== speaker && turn + 1 < lengths[s]! && !planted.has(`${s}:${turn + 1}`)) return `${s}:${turn + 1}`;
    }
  };
  for (const ev of EVENTS) {
    const speaker = int(0, 1);
    const name = speakers[speaker]!;
    const slots: string[] = [];
    const chosen = new Set<number>();
    while (chosen.size < ev.turns.length) chosen.add(int(0, sessions - 1));
    const ss = [...chosen].sort((a, b) => a - b);
    ev.turns.forEach((text, i) => {
      const key = freeSlot(ss[i]!, speaker);
      planted.set(key, text);
      who.set(key, speaker);
      slots.push(key);
    });
    const month = MONTHS[new Date(dates[ss[0]!]!).getUTCMonth()]!;
    const text = ev.question.replaceAll('{n}', name).replaceAll('{month}', month);
    questions.push({ kind: ev.kind, text, slots });
  }
  const turns: ConvTurn[] = [];
  const index = new Map<string, number>();
  for (let s = 0; s < sessions; s++) {
    const ts = new Date(dates[s]!).toISOString();
    for (let i = 0; i < lengths[s]!; i++) {
      const key = `${s}:${i}`;
      const speaker = who.get(key) ?? i % 2;
      const other = speakers[1 - speaker]!;
      const text = planted.get(key) ?? FILLER[Math.floor(rand() * FILLER.length)]!.replaceAll('{o}', other);
      index.set(key, turns.length);
      turns.push({ content: `[${dateLabel(dates[s]!)}] ${speakers[speaker]}: ${text}`, ts, session: s });
    }
  }
  return {
    speakers,
    turns,
    questions: questions.map((q) => ({ kind: q.kind, text: q.text, evidence: q.slots.map((k) => index.get(k)!) })),
  };
}
