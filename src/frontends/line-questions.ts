/**
 * Questions on a plain terminal, a line each (readline), for the command line's walks and `aish -e`:
 * while they are open the prompt's line editing may pass the output guard, and the question and any
 * text put in the line first go through `shown`. Ctrl-C (shown as ^C), Ctrl-D or the end of input
 * answer null, and so does every question after.
 */
import { createInterface } from 'node:readline/promises';
import { allowLineEditing, shown } from '../util/output-guard';

export interface LineQuestions {
  /** The line typed ('' for a bare Enter); `initial` is put in the line first, to be edited. */
  ask(question: string, opts?: { initial?: string }): Promise<string | null>;
  /** Done asking: readline lets go of stdin, and the output guard is as it was. */
  close(): void;
}

/** `terminal`: readline's, when it is not to be decided by `output` (default). */
export function lineQuestions(output: NodeJS.WriteStream, terminal?: boolean): LineQuestions {
  const rl = createInterface({ input: process.stdin, output, ...(terminal !== undefined && { terminal }) });
  const endEditing = allowLineEditing();
  let closed = false;
  rl.once('close', () => (closed = true));
  rl.on('SIGINT', () => {
    output.write('^C\n');
    rl.close();
  });
  return {
    ask: (question, opts) =>
      new Promise((resolve) => {
        if (closed) return resolve(null);
        // readline's question never settles when the input ends first.
        const onClose = () => resolve(null);
        rl.once('close', onClose);
        rl.question(shown(question)).then(
          (a) => {
            rl.off('close', onClose);
            resolve(a);
          },
          () => resolve(null),
        );
        if (opts?.initial) rl.write(shown(opts.initial));
      }),
    close() {
      rl.close();
      endEditing();
    },
  };
}

/** A `[y/N]` question's answer: only y or yes is a yes; Enter, anything else, or nobody there is a no. */
export const saidYes = (answer: string | null): boolean => answer !== null && /^y(es)?$/i.test(answer.trim());
