import { spawn } from '@lydell/node-pty';
import { startFakeOpenAI } from '../test/helpers/openai-server';
const server = await startFakeOpenAI();
delete process.env.CI;
const p = spawn(process.execPath, ['/work/wt-startup/bin/aish.cjs'], { env: { ...process.env, HOME: '/tmp/st/home3', XDG_CONFIG_HOME:'/tmp/st/home3/.config', XDG_DATA_HOME:'/tmp/st/home3/.local/share', OPENAI_API_KEY:'x', OPENAI_BASE_URL: server.url, AISH_CAPTURE:'off' }, cols: 100, rows: 30 });
let out=''; p.onData(d => out += d);
p.write('one\r');
setTimeout(() => p.write('two'), 300);
setTimeout(() => { console.log(JSON.stringify(server.requests.map(r=>r.body?.messages?.at(-1)?.content ?? r)).slice(0,500)); console.log(JSON.stringify(out.slice(-600))); p.kill(); server.close(); process.exit(0)}, 2500);
