/** The checks a config value goes through, each failing with one line that names the key. */
import { exampleConfigHint } from './example';
import { ConfigError } from '../util/errors';
import { closest } from '../util/suggest';

type Obj = Record<string, unknown>;

/** Names of presets and MCP servers: they appear in commands and status lines. */
export const NAME_RE = /^[A-Za-z0-9_-]+$/;

/** Checks one value of the config at a time; each failure names the file, the key and what was expected. */
export class Checker {
  constructor(readonly file: string) {}

  fail(key: string, expected: string, got: unknown): never {
    throw new ConfigError(`config ${this.file}: ${key || 'the default export'} must be ${expected} (got ${describe(got)})`);
  }

  object(key: string, v: unknown, allowed: readonly string[] | null): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof RegExp) {
      this.fail(key, 'an object', v);
    }
    if (allowed) {
      for (const k of Object.keys(v)) {
        if (!allowed.includes(k)) {
          const hint = closest(k, allowed);
          const where = key ? `${key}.${k}` : k;
          throw new ConfigError(
            `config ${this.file}: unknown key ${where}${hint ? ` (did you mean ${key ? `${key}.` : ''}${hint}?)` : ''}; ${exampleConfigHint()}`,
          );
        }
      }
    }
    return v as Obj;
  }

  str(key: string, v: unknown, opts: { nonEmpty?: boolean } = {}): string {
    if (typeof v !== 'string' || (opts.nonEmpty && v.trim() === '')) {
      this.fail(key, opts.nonEmpty ? 'a non-empty string' : 'a string', v);
    }
    return v;
  }

  optStr(key: string, v: unknown): string | undefined {
    return v === undefined ? undefined : this.str(key, v, { nonEmpty: true });
  }

  int(key: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.fail(key, `a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`, v);
    }
    return v;
  }

  num(key: string, v: unknown, min: number, max: number): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.fail(key, `a number from ${min} to ${max}`, v);
    }
    return v;
  }

  bool(key: string, v: unknown): boolean {
    if (typeof v !== 'boolean') this.fail(key, 'true or false', v);
    return v;
  }

  /** One of `choices`, named in the failure as `"a", "b" or "c"`. */
  oneOf<const T extends string>(key: string, v: unknown, choices: readonly T[]): T {
    if (!(choices as readonly unknown[]).includes(v)) {
      const named = choices.map((x) => `"${x}"`);
      this.fail(key, `${named.slice(0, -1).join(', ')} or ${named.at(-1)!}`, v);
    }
    return v as T;
  }

  strList(key: string, v: unknown): string[] {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) this.fail(key, 'a list of strings', v);
    return v as string[];
  }
}

/** What a wrong value was, short enough for one error line. */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof RegExp) return String(v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${typeof v} ${String(v)}`;
  // A function's source or a symbol would not fit one line.
  return typeof v === 'function' ? 'a function' : typeof v;
}
