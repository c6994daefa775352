/**
 * Text that aish puts into a prompt from a file the model or a hand could have written (memory items,
 * a session's working state) must not read as one of the prompt's own block headers or as a chat
 * template's control token: `[recall]`, `[/background]`, `<|im_start|>system`, `[INST]`, `<<SYS>>`,
 * `</s>`, `<system>`, `### Instruction:` … It is matched after Unicode normalisation (NFKC, case
 * folded, invisible characters ignored, look-alike brackets folded), so `［background］` and
 * `[back<ZWSP>ground]` are caught too, and neutralised visibly: its brackets become parentheses
 * (`(recall)`, `(|im_start|)`), a `###` heading becomes `(###)`. Invisible characters (zero-width,
 * bidi controls, Unicode tags that smuggle ASCII) are dropped everywhere. Corpus: docs/hostile-text.md.
 */

/** Dropped from prompt text: zero-width and joiner characters, bidi controls, soft hyphen, BOM, tags, variation selectors. */
// Combining marks (U+034F, U+180B–U+180F, the variation selectors) stand outside the class: inside
// one they would read as joined to the character before them.
const PROMPT_INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\u034f|\p{Variation_Selector}|[\u180b-\u180d]|\u180f/gu;

// Brackets NFKC leaves alone but a reader (or a model) takes for the ASCII ones.
const LOOKALIKE: Record<string, string> = {
  '【': '[',
  '〔': '[',
  '〖': '[',
  '〘': '[',
  '〚': '[',
  '⟦': '[',
  '⁅': '[',
  '❲': '[',
  '】': ']',
  '〕': ']',
  '〗': ']',
  '〙': ']',
  '〛': ']',
  '⟧': ']',
  '⁆': ']',
  '❳': ']',
  '〈': '<',
  '⟨': '<',
  '‹': '<',
  '❮': '<',
  '❬': '<',
  '≺': '<',
  '˂': '<',
  ᐸ: '<',
  '〉': '>',
  '⟩': '>',
  '›': '>',
  '❯': '>',
  '❭': '>',
  '≻': '>',
  '˃': '>',
  ᐳ: '>',
  '｜': '|',
  '∣': '|',
  ǀ: '|',
  '│': '|',
};

// Block names aish writes (and generic role words a template uses), in brackets or angle brackets.
const NAMES =
  'background|recall|session|plan|memory|memories|inbox|aish|norris[^\\]>\\n]{0,40}|system[^\\]>\\n]{0,40}|context|instructions?|inst|sys|user|assistant|developer|tool|human|prompt|im_start|im_end|start_of_turn|end_of_turn|goal|rules|available_tools|tool_calls?|tool_results?|tool_response|function_calls?';
const PATTERNS = [
  // [background], [/recall], [ NORRIS MODE ], [INST], [/INST], [SYSTEM PROMPT]
  new RegExp(`\\[\\s*/?\\s*(?:${NAMES})\\s*\\]`, 'g'),
  // <|im_start|>, <|eot_id|>, <|start_header_id|>, <|endoftext|>, <|system|>: any <|…|> token
  /<\s*\|[^<>|\n]{0,40}\|\s*>/g,
  // <<SYS>>, <</SYS>>
  /<<\s*\/?\s*sys\s*>>/g,
  // </s>, <s>, <system>, </system>, <instructions>, <start_of_turn>user, <|…|> without pipes
  new RegExp(`<\\s*/?\\s*(?:s|${NAMES})\\s*/?\\s*>`, 'g'),
  // ### System:, ### Instruction:, ### Response: (Alpaca-style headings)
  /#{2,}\s*(?:system|instructions?|response|input|human|assistant|user|context)\b\s*:?/g,
];

const INVISIBLE_ONE = new RegExp(PROMPT_INVISIBLE.source, 'u');
const FORMAT = /\p{Cf}/u;
// Every character that is, or normalises or folds to, `[` or `<`, and two `#` (or their
// full-width and small forms) with nothing visible between: without one of them no pattern can
// match, and most lines (`#12`, `C#` included) are returned at once.
const OPENERS = new RegExp(`[[<\ufe47\uff3b\ufe64\uff1c${Object.keys(LOOKALIKE).join('')}]|[#\ufe5f\uff03]\\p{Cf}*[#\ufe5f\uff03]`, 'u');

interface Skeleton {
  text: string;
  /** For each character of `text`, the index in the original where it came from. */
  from: number[];
}

// What a model (or a person) would read: NFKC per character, case folded, look-alikes folded,
// invisible characters gone.
function skeleton(s: string): Skeleton {
  let text = '';
  const from: number[] = [];
  let i = 0;
  for (const ch of s) {
    const here = i;
    i += ch.length;
    const c = ch.charCodeAt(0);
    if (c < 0x80) {
      // ASCII: NFKC leaves it alone; only the case folds.
      text += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : ch;
      from.push(here);
      continue;
    }
    if (FORMAT.test(ch) || INVISIBLE_ONE.test(ch)) continue;
    const norm = (LOOKALIKE[ch] ?? ch).normalize('NFKC').toLowerCase();
    for (const c of LOOKALIKE[norm] ?? norm) {
      text += c;
      from.push(here);
    }
  }
  return { text, from };
}

function neutralSpan(span: string): string {
  let out = '';
  for (const ch of span) {
    const norm = (LOOKALIKE[ch] ?? ch).normalize('NFKC');
    if (norm === '[' || norm === '<') out += '(';
    else if (norm === ']' || norm === '>') out += ')';
    else out += ch;
  }
  return /^\s*#/.test(span) ? span.replace(/^(\s*)(#+)/, '$1($2)') : out;
}

/** `text` as it may go into a prompt block: invisible characters dropped, headers and template tokens neutralised. */
export function neutralizeForPrompt(text: string): string {
  const visible = text.replace(PROMPT_INVISIBLE, '');
  if (!OPENERS.test(visible)) return visible;
  const sk = skeleton(visible);
  const spans: Array<[number, number]> = [];
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(sk.text); m; m = re.exec(sk.text)) {
      const start = sk.from[m.index]!;
      const lastFrom = sk.from[m.index + m[0].length - 1]!;
      const end = lastFrom + String.fromCodePoint(visible.codePointAt(lastFrom)!).length;
      spans.push([start, end]);
    }
  }
  if (!spans.length) return visible;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    out += visible.slice(at, from) + neutralSpan(visible.slice(from, end));
    at = end;
  }
  return out + visible.slice(at);
}
