import { spawn } from '@lydell/node-pty';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const bins = { new: '/work/main/bin/aish.cjs', old: '/work/wt-old/bin/aish.cjs' };
const run = (bin) => new Promise((res) => {
  const home = mkdtempSync(join(tmpdir(), 'ab-'));
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home,'.config'), XDG_DATA_HOME: join(home,'.local/share'), XDG_CACHE_HOME: join(home,'.cache'), LANG:'C.UTF-8', TERM:'xterm-256color', OPENAI_API_KEY:'x', OPENAI_BASE_URL:'http://127.0.0.1:9/v1', AISH_CAPTURE:'off' };
  const t0 = performance.now(); let buf = ''; let t1 = 0;
  const p = spawn(process.execPath, [bin], { cols: 100, rows: 30, cwd: '/work/main', env });
  p.onData(d => { buf += d; if (!t1 && buf.includes('\x1b[?2026h')) { t1 = performance.now() - t0; p.write('\x04'); } });
  p.onExit(() => res(t1));
});
const r = { new: [], old: [] };
for (let i = 0; i < 15; i++) for (const k of ['new', 'old']) r[k].push(await run(bins[k]));
for (const k in r) { r[k].sort((a, b) => a - b); console.log(k, r[k][7].toFixed(1), r[k].map(x=>x.toFixed(0)).join(' ')); }
