// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStream } from '../../../src/ui/hooks/useStream.ts';

let frameQueue: FrameRequestCallback[] = [];
let frameTime = 0;
function flushFrame(): void {
  const due = frameQueue;
  frameQueue = [];
  frameTime += 16;
  for (const cb of due) cb(frameTime);
}

beforeEach(() => {
  frameQueue = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frameQueue.push(cb));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frameQueue[id - 1] = () => undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useStream', () => {
  it('renders the initial value, then at most one update per animation frame with the latest value', () => {
    const source = new Subject<number>();
    const renders: number[] = [];
    function Probe() {
      const v = useStream(source, -1);
      renders.push(v);
      return <span data-testid="v">{v}</span>;
    }
    const { getByTestId } = render(<Probe />);
    expect(getByTestId('v').textContent).toBe('-1');
    const before = renders.length;
    act(() => {
      for (let i = 1; i <= 100; i++) source.next(i);
    });
    expect(getByTestId('v').textContent).toBe('-1'); // nothing until the frame fires
    act(() => flushFrame());
    expect(getByTestId('v').textContent).toBe('100');
    expect(renders.length - before).toBe(1);
    act(() => {
      source.next(101);
      source.next(102);
      flushFrame();
    });
    expect(getByTestId('v').textContent).toBe('102');
    expect(renders.length - before).toBe(2);
  });

  it('unsubscribes on unmount', () => {
    const source = new Subject<number>();
    function Probe() {
      return <span>{useStream(source, 0)}</span>;
    }
    const { unmount } = render(<Probe />);
    expect(source.observed).toBe(true);
    unmount();
    expect(source.observed).toBe(false);
  });
});
