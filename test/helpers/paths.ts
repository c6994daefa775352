import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/aish.cjs', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The checkout's real path, without a trailing slash (what bubblewrap binds). */
export const CHECKOUT = realpathSync(ROOT);
