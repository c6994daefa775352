/**
 * A real process adding candidates to an inbox through the real Inbox, one add per candidate,
 * printing `ok <id>` after each returns (i.e. after fdatasync).
 */
import { Inbox } from '../../../src/memory/review/inbox';

interface Args {
  memoryPath: string;
  count: number;
  tag: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const inbox = Inbox.open(args.memoryPath, { lock: { waitMs: 30_000 } });
for (let i = 0; i < args.count; i++) {
  const added = await inbox.add([{ kind: 'fact', content: `${args.tag} candidate ${i}`, source: { session: args.tag } }]);
  for (const c of added) process.stdout.write(`ok ${c.id}\n`);
}
