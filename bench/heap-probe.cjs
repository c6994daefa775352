/**
 * A probe for the child that `npm run bench -- rss-turns` starts (never part of aish): load it with
 * AISH_BENCH_NODE_OPTIONS="--require ./bench/heap-probe.cjs" and name turns in AISH_BENCH_SNAPSHOT_AT.
 * At each of those turns (SIGUSR2) it appends one JSON line to AISH_HEAP_PROBE_OUT: RSS,
 * process.memoryUsage() and V8's heap spaces (size and used, MB). With AISH_HEAP_PROBE_SAMPLE, V8's
 * sampling heap profiler runs from the start and each SIGUSR2 writes the allocations since the last
 * one to AISH_HEAP_PROBE_OUT.heapprofile (overwritten: the last interval is kept):
 * `all` counts every allocation (allocation per turn), `survived` only what outlived a scavenge
 * (what grows V8's young generation), `live` only what is still alive.
 */
'use strict';
const fs = require('node:fs');
const v8 = require('node:v8');
const inspector = require('node:inspector');

const out = process.env.AISH_HEAP_PROBE_OUT;
const mode = process.env.AISH_HEAP_PROBE_SAMPLE;
const mb = (b) => Math.round((b / 1048576) * 10) / 10;

if (out) {
  let session = null;
  const start = () =>
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 32768,
      includeObjectsCollectedByMajorGC: mode === 'all' || mode === 'survived',
      includeObjectsCollectedByMinorGC: mode === 'all',
    });
  if (mode) {
    session = new inspector.Session();
    session.connect();
    start();
  }
  process.on('SIGUSR2', () => {
    const m = process.memoryUsage();
    const spaces = {};
    for (const s of v8.getHeapSpaceStatistics())
      if (s.space_size > 0) spaces[s.space_name] = { size: mb(s.space_size), used: mb(s.space_used_size) };
    const line = {
      rss: mb(m.rss),
      heapTotal: mb(m.heapTotal),
      heapUsed: mb(m.heapUsed),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
      spaces,
    };
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
    if (session)
      session.post('HeapProfiler.stopSampling', (err, r) => {
        if (!err) fs.writeFileSync(`${out}.heapprofile`, JSON.stringify(r.profile));
        start();
      });
  });
}
