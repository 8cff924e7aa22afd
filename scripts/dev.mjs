#!/usr/bin/env node
// `npm run dev`: the API server (tsx watch) and the Vite dev server (with /api, WebSocket included, proxied to it).
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/server.ts'], { stdio: 'inherit', env: { ...process.env, SERVE_STATIC: '0' } }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => { if (code) stop(); });
