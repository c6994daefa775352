import { benchSync } from './sync';
const r = await benchSync({ sizes: [10_000], runs: 9 });
for (const row of r.rows) console.log(row.join(' | '));
