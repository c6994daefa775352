/** Reading a side file that may not have been written yet. */
import { readFileSync } from 'node:fs';
import { errnoCode } from './errors';

/** The file's text; '' when it does not exist. Any other failure (no permission, a directory) is thrown. */
export function readTextIfExists(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return '';
    throw err;
  }
}
