import { classifyCommand } from '/work/wt/attack4/src/tools/safety/classify';
const cmds = process.argv.slice(2);
for (const c of cmds) { const r = await classifyCommand(c); console.log(r.destructive ? 'DESTR' : 'harmless', '|', c, '|', (r as any).reasons?.join(';')); }
