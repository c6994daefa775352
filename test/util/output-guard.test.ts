import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { allowLineEditing, guardOutput, shown, writeRaw } from '../../src/util/output-guard';

/** A stream that keeps what reached it, with a guard on it. */
function guarded(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: Buffer[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  const stream = w as unknown as NodeJS.WriteStream;
  guardOutput([stream]);
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('the output boundary on a stream', () => {
  it('filters strings, buffers and 8-bit C1 split across writes', () => {
    const g = guarded();
    g.stream.write('a\u001b]0;t\u0007b');
    g.stream.write(Buffer.from('\u009b2J'.slice(0, 1), 'utf8').subarray(0, 1)); // first byte of U+009B
    g.stream.write(Buffer.concat([Buffer.from('\u009b', 'utf8').subarray(1), Buffer.from('2J \u202e end')]));
    expect(g.text()).toBe('a^[]0;t^Gb<U+009B>2J <U+202E> end');
  });

  it('calls the callback and keeps the encoding argument optional', async () => {
    const g = guarded();
    await new Promise<void>((resolve) => g.stream.write('x\u0007', 'utf8', () => resolve()));
    await new Promise<void>((resolve) => g.stream.write('y', () => resolve()));
    expect(g.text()).toBe('x^Gy');
  });

  it('writeRaw passes our own sequence; line editing only while allowed, and shown() text never rides on it', () => {
    const g = guarded();
    writeRaw(g.stream, '\u001b]52;c;aGk=\u0007');
    g.stream.write('\u001b[1G');
    const end = allowLineEditing();
    g.stream.write('\u001b[1G' + shown('q\u001b[1A?'));
    end();
    g.stream.write('\u001b[1G');
    expect(g.text()).toBe('\u001b]52;c;aGk=\u0007^[[1G\u001b[1Gq^[[1A?^[[1G');
  });
});
