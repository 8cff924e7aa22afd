// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '../../../src/ui/components/Button.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Button (450 ms click debounce, pending state)', () => {
  it('drops clicks within 450 ms of the accepted one, accepts after', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Go</Button>);
    const b = screen.getByRole('button', { name: 'Go' });
    fireEvent.click(b);
    fireEvent.click(b);
    vi.advanceTimersByTime(449);
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it("a double click's second click never presses the button that took the first one's place", () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const convert = vi.fn();
    const again = vi.fn();
    // A result view: the answer arrives between the two clicks and a new button stands where the
    // clicked one was (the convert screen's "Convert again").
    function Flow() {
      const [done, setDone] = useState(false);
      return done ? (
        <Button key="again" onClick={again}>
          Convert again
        </Button>
      ) : (
        <Button
          key="convert"
          onClick={() => {
            convert();
            setDone(true);
          }}
        >
          Convert
        </Button>
      );
    }
    render(<Flow />);
    fireEvent.click(screen.getByRole('button', { name: 'Convert' }), { detail: 1 });
    const next = screen.getByRole('button', { name: 'Convert again' });
    vi.advanceTimersByTime(120);
    fireEvent.click(next, { detail: 2 });
    expect(convert).toHaveBeenCalledTimes(1);
    expect(again).not.toHaveBeenCalled();
    // a later single click (or the keyboard's, detail 0) is the user's own
    vi.advanceTimersByTime(1000);
    fireEvent.click(next, { detail: 1 });
    expect(again).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    fireEvent.click(next, { detail: 0 });
    expect(again).toHaveBeenCalledTimes(2);
  });

  it('a click after an edit is a new intent: it runs inside the 450 ms window (issue 17)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const onClick = vi.fn();
    render(
      <form>
        <input aria-label="Name" defaultValue="" />
        <Button onClick={onClick}>Submit</Button>
      </form>,
    );
    const b = screen.getByRole('button', { name: 'Submit' });
    fireEvent.click(b);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    vi.advanceTimersByTime(10);
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(2);
    // with no edit in between it is still a double click, and dropped
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(2);
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Ada L' } });
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(3);
  });

  it('is disabled and busy while the returned promise is pending, and ignores clicks', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    let resolve: () => void = () => {};
    const onClick = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    render(<Button onClick={onClick}>Save</Button>);
    const b = screen.getByRole('button', { name: /Save/ });
    fireEvent.click(b);
    expect(b.getAttribute('aria-busy')).toBe('true');
    expect((b as HTMLButtonElement).disabled).toBe(true);
    vi.advanceTimersByTime(1000);
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(async () => resolve());
    expect(b.getAttribute('aria-busy')).toBeNull();
    expect((b as HTMLButtonElement).disabled).toBe(false);
  });

  it('external pending prop disables it', () => {
    render(
      <Button pending onClick={() => {}}>
        Wait
      </Button>,
    );
    expect((screen.getByRole('button', { name: /Wait/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Dropdown', () => {
  it('a click right after the hover that opened it keeps it open; a second click closes it', async () => {
    const { Dropdown } = await import('../../../src/ui/components/Dropdown.tsx');
    render(
      <Dropdown label="Trade" trigger="Trade">
        {() => <a role="menuitem">Convert</a>}
      </Dropdown>,
    );
    const trigger = screen.getByRole('button', { name: 'Trade' });
    fireEvent.mouseEnter(trigger.parentElement as HTMLElement);
    fireEvent.click(trigger);
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.click(trigger);
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(trigger);
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
