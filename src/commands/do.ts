/** :do TEXT — a shell command for TEXT, shown with why, then execute / revise / describe / copy / quit. */
import { UsageError } from '../util/errors';
import { command } from './types';

export const doCommand = command({
  needs: ['suggest'],
  name: 'do',
  args: 'TEXT',
  summary: 'a shell command for TEXT, to review: [e]xecute [r]evise [d]escribe [c]opy [q]uit',
  help: [
    '  :do TEXT   the model answers with one shell command for TEXT (your directory, OS and shell in view)',
    '             and a line on what it does; then e runs it like !cmd (a destructive one needs the typed',
    '             word yes), r asks what to change, d explains each part, c copies it (OSC 52), q quits',
  ].join('\n'),
  run: async ({ suggest, rest }) => {
    if (!rest.trim()) throw new UsageError('usage: :do TEXT — e.g. :do find files over 100 MB here');
    await suggest.command(rest);
  },
});
