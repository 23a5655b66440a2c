// Samples every allocation the bot makes, collected or not (V8's sampling heap profiler through the
// inspector), and writes bench/tmp/alloc-<pid>.heapprofile when the bot exits; read it with
// bench/profile-summary.ts. Preloaded into the bot for one run (bench/README, "fifth session").
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: 32_768,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
process.once('exit', () => {
  // An in-process session answers synchronously, so the profile is written before the process ends.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return;
    const file = path.join(__dirname, 'tmp', `alloc-${process.pid}.heapprofile`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(result.profile));
  });
});
