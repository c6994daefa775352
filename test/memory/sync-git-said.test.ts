/** What a sync says when git fails: git's own reason, in one line, with nothing a remote could use to paint the terminal. */
import { describe, expect, it } from 'vitest';
import { gitSaid } from '../../src/memory/sync/git';

describe('gitSaid', () => {
  it('a push into a repository with a work tree: the remote’s reason, not “failed to push some refs”', () => {
    const stderr = [
      'remote: error: refusing to update checked out branch: refs/heads/main        ',
      'remote: error: By default, updating the current branch in a non-bare repository        ',
      'remote: is denied, because it will make the index and work tree inconsistent        ',
      'To /tmp/w',
      ' ! [remote rejected] 23ceba7 -> main (branch is currently checked out)',
      "error: failed to push some refs to '/tmp/w'",
      '',
    ].join('\n');
    expect(gitSaid({ code: 1, stdout: '', stderr })).toBe('refusing to update checked out branch: refs/heads/main');
  });

  it('a rejection with only a reason in brackets, and a remote’s fatal line', () => {
    const porcelain = 'To /tmp/r.git\n!\tHEAD:refs/heads/main\t[remote rejected] (pre-receive hook declined)\nDone\n';
    expect(gitSaid({ code: 1, stdout: porcelain, stderr: "error: failed to push some refs to '/tmp/r.git'\n" })).toBe(
      'the remote rejected the push: pre-receive hook declined',
    );
    const stderr = 'remote: fatal: pack exceeds maximum allowed size        \nerror: remote unpack failed: unpack-objects abnormal exit\n';
    expect(gitSaid({ code: 1, stdout: '', stderr })).toBe('pack exceeds maximum allowed size');
  });

  it('terminal controls a remote sends are dropped; credentials in a URL are not shown', () => {
    const stderr = 'remote: error: \u001b[31mdenied\u001b[0m\u0007 for https://me:tok3n@host/x.git\u001b]0;title\u0007\n';
    const said = gitSaid({ code: 1, stdout: '', stderr });
    expect(said).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(said).not.toContain('tok3n');
    expect(said).toMatch(/^denied for https:\/\/host\/x\.git/);
  });
});
