/**
 * One line of input, routed: `:command` to the meta commands, `!cmd` to the user's shell, anything
 * else to the model. Also Tab completion of a whole line (commands, and paths after `@`). Every
 * front end submits through here; the core below never sees a command line.
 */
import { commandCatalog } from '../commands/registry';
import { commandServices } from '../commands/services';
import { pickServices, type CommandCatalog, type CommandServices, type MetaCommand, type SubCommand } from '../commands/types';
import type { EngineHost } from '../core/host';
import { sendPrompt } from '../core/prompt';
import type { RunSlot } from '../core/run-slot';
import type { SessionParts } from '../core/session-parts';
import { runUserShell, type UserShellDeps } from '../core/user-shell';
import { completeAtPath } from '../context/at-complete';
import { formatError, UsageError } from '../util/errors';
import { closest } from '../util/suggest';

const words = (s: string): string[] => (s ? s.split(/\s+/) : []);

/**
 * What a shell's user types to leave, alone on the line: `exit` or `quit` (any case, any spacing),
 * and `!exit` (run in a child shell, the builtin would only end that shell). Each is `:quit`.
 * `exit 1`, `exit now please` and the like are prompts (or, after `!`, commands) as before.
 */
const LEAVE = /^\s*(?:exit|quit)\s*$/i;
const SHELL_EXIT = /^!!?\s*exit\s*$/;

/** What a front end drives a session with: a line in, Tab, Ctrl-C, and whether something runs. */
export interface SessionHandle {
  submit(line: string): Promise<{ quit: boolean }>;
  complete(line: string): string[];
  /** Cancel what is running. True when something was running. */
  cancel(): boolean;
  readonly busy: boolean;
}

/** Where the router sends a line that is not a command. */
export interface LineTargets {
  readonly host: Pick<EngineHost, 'print'>;
  /** A prompt for the model. */
  prompt(text: string): Promise<unknown>;
  /** `!cmd`. */
  readonly userShell: UserShellDeps;
  readonly run: Pick<RunSlot, 'cancel' | 'busy'>;
}

/** The router for a session built by the composition root. */
export function routerFor(p: SessionParts, catalog: CommandCatalog = commandCatalog): InputRouter {
  const targets: LineTargets = Object.freeze({
    host: p.host,
    prompt: (text: string) => sendPrompt(p.prompt, text),
    userShell: p.userShell,
    run: p.run,
  });
  return new InputRouter(targets, commandServices(p, catalog), catalog);
}

export class InputRouter implements SessionHandle {
  constructor(
    private readonly targets: Readonly<LineTargets>,
    private readonly services: Readonly<CommandServices>,
    private readonly catalog: CommandCatalog = commandCatalog,
  ) {}

  get busy(): boolean {
    return this.targets.run.busy;
  }

  cancel(): boolean {
    return this.targets.run.cancel();
  }

  /** Run one line; errors are shown, never thrown. */
  async submit(line: string): Promise<{ quit: boolean }> {
    const text = line.replace(/\s+$/, '');
    if (!text.trim()) return { quit: false };
    try {
      if (LEAVE.test(text) || SHELL_EXIT.test(text)) return await this.meta(':quit');
      if (text.startsWith(':')) return await this.meta(text);
      if (text.startsWith('!')) await runUserShell(this.targets.userShell, text.slice(1));
      else await this.targets.prompt(text);
    } catch (err) {
      this.targets.host.print({ kind: 'error', text: formatError(err) });
    }
    return { quit: false };
  }

  /** Tab completion of a whole line: the candidate full lines, sorted and unique. */
  complete(line: string): string[] {
    if (!line.startsWith(':')) return this.completeAt(line);
    const m = /^:(\S*)$/.exec(line);
    if (m)
      return unique(
        this.catalog
          .all()
          .map((c) => c.name)
          .filter((n) => n.startsWith(m[1]!)),
      ).map((n) => `:${n}`);
    const all = line.slice(1).split(/\s+/);
    const cmd = this.catalog.find(all[0]!);
    const word = all[all.length - 1]!;
    const before = all.slice(1, -1);
    let candidates: string[] = [];
    if (cmd) {
      const services = pickServices(this.services, cmd.needs);
      if (cmd.subcommands) {
        if (before.length === 0) candidates = cmd.subcommands.map((s) => s.name);
        else candidates = cmd.subcommands.find((s) => s.name === before[0])?.complete?.(services, before.slice(1), word) ?? [];
      } else if (cmd.complete) candidates = cmd.complete(services, before, word);
    }
    const prefix = line.slice(0, line.length - word.length);
    return unique(candidates.filter((c) => c.startsWith(word))).map((c) => prefix + c);
  }

  /** A prompt's last word when it is `@path`: the paths it may complete to (`!cmd` lines are the shell's). */
  private completeAt(line: string): string[] {
    const m = line.startsWith('!') ? null : /(^|[\s(["'`])@(\S*)$/.exec(line);
    if (!m) return [];
    const prefix = line.slice(0, line.length - m[2]!.length);
    return completeAtPath(m[2]!, this.targets.userShell.cwd).map((p) => prefix + p);
  }

  private async meta(line: string): Promise<{ quit: boolean }> {
    const body = line.slice(1).trim();
    const name = body.split(/\s+/, 1)[0] ?? '';
    if (!name) {
      // A bare `:` is no misspelling of :q: say where the commands are.
      this.targets.host.print({ kind: 'info', text: 'type :help for commands' });
      return { quit: false };
    }
    const cmd = this.catalog.find(name);
    if (!cmd) {
      const hint = closest(
        name,
        this.catalog.all().flatMap((c) => [c.name, ...(c.aliases ?? [])]),
      );
      this.targets.host.print({ kind: 'error', text: `unknown command :${name} — try :help${hint ? ` (did you mean :${hint}?)` : ''}` });
      return { quit: false };
    }
    const { run, rest } = pick(cmd, body.slice(name.length).trim());
    // The command gets the services it declares and nothing else.
    const result = await run?.({ ...pickServices(this.services, cmd.needs), rest, argv: words(rest) });
    for (const item of result?.output ?? []) this.targets.host.print(item);
    return { quit: result?.quit === true };
  }
}

/** The command's own run, or the subcommand named by the first word (the default when none). */
function pick(cmd: MetaCommand, rest: string): { run: MetaCommand['run'] | SubCommand['run']; rest: string } {
  if (!cmd.subcommands) return { run: cmd.run, rest };
  let first = rest.split(/\s+/, 1)[0] ?? '';
  // `:sessions --all`: a flag goes to the default subcommand.
  if (first.startsWith('-') && cmd.defaultSub) {
    const sub = cmd.subcommands.find((s) => s.name === cmd.defaultSub);
    if (sub) return { run: sub.run, rest };
    first = '';
  }
  const sub = cmd.subcommands.find((s) => s.name === (first || cmd.defaultSub));
  if (!sub) {
    const names = cmd.subcommands.map((s) => s.name);
    const near = first ? closest(first, names) : undefined;
    const hint = near ? ` (did you mean :${cmd.name} ${near}?)` : '';
    throw new UsageError(
      `unknown :${cmd.name} subcommand "${first}"${hint} — usage: :${cmd.name} ${names.join('|')} — see :help ${cmd.name}`,
    );
  }
  return { run: sub.run, rest: first ? rest.slice(first.length).trim() : rest };
}

function unique(list: string[]): string[] {
  return [...new Set(list)].sort();
}
