/**
 * What may run unasked outside a sandbox: commands proven read-only by parsing them, not commands
 * merely not known to be dangerous. (Placeholder: nothing is on the list yet.)
 */

export interface AllowVerdict {
  /** Every simple command in it is on the read-only allowlist, with every argument checked. */
  safe: boolean;
  /** Why not, for the user (e.g. `sed -i rewrites files`, `output redirected to a file`). */
  reason?: string;
}

/** Needs the shell parser loaded (loadShellParser). */
export function allowlistVerdictSync(command: string): AllowVerdict {
  void command;
  return { safe: false, reason: 'not on the read-only list' };
}

export async function allowlistVerdict(command: string): Promise<AllowVerdict> {
  return allowlistVerdictSync(command);
}
