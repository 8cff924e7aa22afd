import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, createApiClient, errorMessage, isSpecialEnvelope } from '../../../src/api/client.ts';
import { createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';

function setup() {
  const http = createScriptedHttp();
  const calls: string[] = [];
  const api = createApiClient({
    http,
    onUnauthorized: () => calls.push('unauthorized'),
    onNetworkError: (m) => calls.push(`network:${m}`),
  });
  return { http, api, calls };
}

describe('createApiClient (SPEC §8)', () => {
  it('200 resolves with data; request() resolves with the whole envelope', async () => {
    const { http, api, calls } = setup();
    http.on('GET', '/x', envelope(200, 'fine', { a: 1 }));
    await expect(api.get('/x', { q: 1 })).resolves.toEqual({ a: 1 });
    await expect(api.request({ method: 'GET', path: '/x' })).resolves.toEqual({ code: 200, msg: 'fine', data: { a: 1 } });
    expect(http.requests[0]).toEqual({ method: 'GET', path: '/x', query: { q: 1 } });
    expect(calls).toEqual([]);
  });

  it('post passes body and the form flag', async () => {
    const { http, api } = setup();
    http.on('POST', '/user/login', envelope(200, 'ok', { token: 't' }));
    await api.post('/user/login', { email: 'e' }, { form: true });
    expect(http.requests[0]).toEqual({ method: 'POST', path: '/user/login', body: { email: 'e' }, form: true });
  });

  it('401 calls onUnauthorized first, then rejects with the server msg', async () => {
    const { http, api, calls } = setup();
    http.on('GET', '/x', envelope(401, 'Login expired'));
    const err = await api.get('/x').catch((e: unknown) => e);
    expect(calls).toEqual(['unauthorized']);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 401, msg: 'Login expired', message: 'Login expired' });
  });

  it('201 rejects with the whole envelope', async () => {
    const { http, api, calls } = setup();
    const env = { code: 201, msg: 'special', data: { need: 'x' } };
    http.on('POST', '/x', { kind: 'envelope', envelope: env });
    const err = await api.post('/x').catch((e: unknown) => e);
    expect(err).toEqual(env);
    expect(isSpecialEnvelope(err)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('other codes reject with ApiError(code, msg or "Error")', async () => {
    const { http, api } = setup();
    http.on('GET', '/a', envelope(400, 'Bad thing'));
    http.on('GET', '/b', envelope(500, ''));
    await expect(api.get('/a')).rejects.toMatchObject({ code: 400, msg: 'Bad thing' });
    const e = await api.get('/b').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 500, msg: 'Error' });
    expect(errorMessage(e)).toBe('Error');
  });

  it('network error or timeout: onNetworkError(message or "Error"), then rejects', async () => {
    const { http, api, calls } = setup();
    http.on('GET', '/t', { kind: 'networkError', message: 'timeout of 30000ms' });
    http.on('GET', '/e', { kind: 'networkError', message: '' });
    await expect(api.get('/t')).rejects.toBeInstanceOf(NetworkError);
    await expect(api.get('/e')).rejects.toThrow('Error');
    expect(calls).toEqual(['network:timeout of 30000ms', 'network:Error']);
  });

  it('a request the caller aborted rejects without the network-error toast', async () => {
    const { http, api, calls } = setup();
    http.on('GET', '/slow', { kind: 'networkError', message: 'The user aborted a request.' });
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(api.get('/slow', undefined, ctrl.signal)).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toEqual([]);
  });
});
