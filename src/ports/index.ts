/** Public facade of the ports: interfaces, browser adapters, recording adapters, redaction. */
export type * from './types.ts';
export {
  API_BASE,
  CLIENT_ID,
  DEFAULT_LANG,
  REQUEST_TIMEOUT_MS,
  browserClock,
  browserReplayHost,
  browserRandom,
  createBrowserHttp,
  createBrowserPorts,
  createBrowserSocket,
  createBrowserStorage,
  onPageLifecycle,
  resolveSocketUrl,
} from './browser.ts';
export type { BrowserHttpOptions, BrowserPortsOptions, BrowserSocketOptions, PageLifecycleHandlers } from './browser.ts';
export {
  createRecordingPorts,
  recordingClock,
  recordingHttp,
  recordingRandom,
  recordingSocket,
  recordingStorage,
} from './recording.ts';
export { classifyField, createRedactor } from './redact.ts';
export type { Redactor, SecretClass } from './redact.ts';
export { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from './fakes.ts';
export type { ScriptedHttp, ScriptedSocket, ScriptedSocketFactory } from './fakes.ts';
