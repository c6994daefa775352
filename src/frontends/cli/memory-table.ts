/**
 * What `aish memory …` loads, as one lazy import from program.ts: the verbs' table and the code
 * that runs a verb (./memory-run.ts). One split point instead of two, so a verb loads fewer files.
 */
import { MEMORY_VERBS } from '../../commands/memory-verbs';
import type { VerbTable } from './memory-door';
import { runVerb } from './memory-run';

export const verbTable: VerbTable = { verbs: MEMORY_VERBS, run: runVerb };
