/**
 * Which of many keywords occur in a text, and where, in one pass (Aho–Corasick over UTF-16 code
 * units of the lower-cased text). gitleaks' idea: a rule runs only near one of its keywords, so the
 * cost of scanning stays linear in the text however many rules there are.
 */

export class KeywordIndex {
  private readonly next: Map<number, number>[] = [new Map<number, number>()];
  private readonly fail: number[] = [0];
  /** Keywords ending at each state, fail links folded in. */
  private readonly out: number[][] = [[]];

  constructor(readonly keywords: readonly string[]) {
    keywords.forEach((kw, k) => {
      let s = 0;
      for (let i = 0; i < kw.length; i++) {
        const c = kw.charCodeAt(i);
        let t = this.next[s]!.get(c);
        if (t === undefined) {
          t = this.next.length;
          this.next.push(new Map<number, number>());
          this.fail.push(0);
          this.out.push([]);
          this.next[s]!.set(c, t);
        }
        s = t;
      }
      this.out[s]!.push(k);
    });
    // Breadth-first, so a state's fail link is final before its children need it.
    const queue = [...this.next[0]!.values()];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      for (const [c, t] of this.next[s]!) {
        let f = this.fail[s]!;
        while (f && !this.next[f]!.has(c)) f = this.fail[f]!;
        const g = this.next[f]!.get(c);
        this.fail[t] = g !== undefined && g !== t ? g : 0;
        this.out[t]!.push(...this.out[this.fail[t]]!);
        queue.push(t);
      }
    }
  }

  /**
   * Where each keyword occurs in `text` (ASCII letters compared without case): for keyword k,
   * the start offsets, in order. Keywords that do not occur have no entry.
   */
  find(text: string): Map<number, number[]> {
    const hits = new Map<number, number[]>();
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      let t = this.next[s]!.get(c);
      while (t === undefined && s) {
        s = this.fail[s]!;
        t = this.next[s]!.get(c);
      }
      s = t ?? 0;
      for (const k of this.out[s]!) {
        const at = i + 1 - this.keywords[k]!.length;
        const list = hits.get(k);
        if (list) list.push(at);
        else hits.set(k, [at]);
      }
    }
    return hits;
  }

  /** The keywords `text` starts with (ASCII letters compared without case). */
  prefixes(text: string): number[] {
    const found: number[] = [];
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      const t = this.next[s]!.get(c);
      if (t === undefined) break;
      s = t;
      for (const k of this.out[s]!) if (this.keywords[k]!.length === i + 1) found.push(k);
    }
    return found;
  }
}
