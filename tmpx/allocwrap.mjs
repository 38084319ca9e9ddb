// Runs a bench server in-process under the sampling heap profiler; SIGUSR2 starts sampling, SIGTERM writes the profile.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const s = new Session(); s.connect();
process.on('SIGUSR2', async () => { await s.post('HeapProfiler.enable'); await s.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }); });
process.on('SIGTERM', async () => { const { profile } = await s.post('HeapProfiler.stopSampling'); writeFileSync(process.env.OUT, JSON.stringify(profile)); process.exit(0); });
await import(process.env.TARGET);
