/** Where the inbox lives: beside memory.jsonl. Its own module so start-up can ask without loading the inbox. */
import { dirname, join } from 'node:path';

export function inboxPath(memoryPath: string): string {
  return join(dirname(memoryPath), 'inbox.jsonl');
}
