import { Code } from '../../src/protocol/envelope.ts';
import { ENGINE_MSG } from '../../src/protocol/engineStatus.ts';
import { Rejection } from '../http/errors.ts';
import { apply } from './apply.ts';
import type { Command, Outcome } from './apply.ts';
import { JournalWriteError } from './journal.ts';
import type { Journal } from './journal.ts';
import type { EngineState } from './state.ts';

/**
 * The sequencer (issue 28 step 2, docs/SCALING.md): the one writer of the engine's state. Each
 * command gets the next sequence number and the injected clock's time, is applied to the state in
 * memory (`apply`, synchronous), and its record is appended to the journal; the caller's answer (the
 * outcome) is given only once the record is durable. Commands submitted in one event-loop turn share
 * one journal write and sync (the journal's group commit).
 *
 * A record's body is the command as it came (plain JSON: amounts are decimal strings, prices and
 * quantities numbers); the outcome is not stored: replaying the journal recomputes it (`apply` is a
 * pure function of the state, the command, its seq and its time).
 *
 * A failed journal write (JournalWriteError: a full disk, an I/O error): the journal drops the failed
 * batch and everything after it; the commands of those records were applied here but never
 * acknowledged, so the state is brought back to the journal's `durableSeq` (`recover`: the latest
 * snapshot + the journal up to it) and every one of them is refused with {@link EngineUnavailable}
 * (503, nothing was changed). While the state is recovered every command is refused; after it, one
 * command at a time is tried (the others are refused at once) until an append succeeds again, then
 * the sequencer takes every command again.
 *
 * NOT wired into the server yet: the SQL engine stays the production path until every command runs
 * here and every server test passes on it.
 */

/** The journal cannot make commands durable now: refused, nothing changed (HTTP 503; the message is translated where it is answered). */
export class EngineUnavailable extends Rejection {
  constructor(override readonly cause?: unknown) {
    super(Code.serviceUnavailable, ENGINE_MSG.journalUnavailable);
  }
}

export interface SequencerOptions {
  journal: Journal;
  clock: { now(): number };
  /** The state at the journal's `durableSeq` (recovered by the caller at start). */
  state: EngineState;
  /** The state at `seq` (the latest snapshot + the journal to `seq`), after a failed write. */
  recover: (seq: number) => Promise<EngineState> | EngineState;
  /** Told when a recovery itself failed (the sequencer keeps refusing and tries again on the next command). */
  onError?: (err: unknown) => void;
  /**
   * Told of each command's outcome once its record is durable, in seq order, before its caller is
   * answered (refusals too): the projector (server/engine/projector.ts) follows it.
   */
  onDurable?: (outcome: Outcome) => void;
}

type Mode = 'open' | 'recovering' | 'probing';

export class Sequencer {
  private s: EngineState;
  /** The seq of the last command applied to `s`. */
  private applied: number;
  private mode: Mode = 'open';
  private probeInFlight = false;
  private recovery: Promise<void> | null = null;
  readonly stats = { accepted: 0, refused: 0, unavailable: 0, recoveries: 0 };

  constructor(private readonly opts: SequencerOptions) {
    this.s = opts.state;
    this.applied = opts.journal.durableSeq;
    if (opts.journal.nextSeq !== this.applied + 1) throw new Error(`journal has records in flight (next ${opts.journal.nextSeq}, durable ${this.applied})`);
  }

  /** The live state (read it, never change it: only `submit` does). */
  get state(): EngineState {
    return this.s;
  }

  /** The seq of the last applied command. */
  get seq(): number {
    return this.applied;
  }

  /** Whether commands are taken ('open'), all refused ('recovering'), or tried one at a time ('probing'). */
  get status(): Mode {
    return this.mode;
  }

  /**
   * Applies `cmd` at the next seq and the clock's time, appends its record, and resolves with the
   * outcome (accepted, or a refusal with the route's code and message) once the record is durable.
   * Rejects with {@link EngineUnavailable} when the journal cannot make it durable.
   */
  submit(cmd: Command): Promise<Outcome> {
    if (this.mode === 'recovering' || (this.mode === 'probing' && this.probeInFlight)) return this.unavailable();
    const journal = this.opts.journal;
    if (journal.nextSeq !== this.applied + 1) {
      // The journal dropped records this state has applied (a failure not yet seen here): recover first.
      this.fail();
      return this.unavailable();
    }
    const probing = this.mode === 'probing';
    if (probing) this.probeInFlight = true;
    const seq = journal.nextSeq;
    const t = this.opts.clock.now();
    const outcome = apply(this.s, cmd, seq, t);
    this.applied = seq;
    return journal.append({ seq, t, body: cmd }).then(
      () => {
        if (probing) {
          this.probeInFlight = false;
          this.mode = 'open';
        }
        if (outcome.ok) this.stats.accepted += 1;
        else this.stats.refused += 1;
        try {
          this.opts.onDurable?.(outcome);
        } catch (err) {
          // The command is durable and its answer stands: a follower's failure is its own (reported).
          this.opts.onError?.(err);
        }
        return outcome;
      },
      (err: unknown) => {
        if (!(err instanceof JournalWriteError)) throw err;
        this.fail();
        return this.unavailable(err);
      },
    );
  }

  /** Resolves once a recovery under way is done and the journal has nothing in flight. */
  async idle(): Promise<void> {
    while (this.recovery) await this.recovery;
    await this.opts.journal.drain();
  }

  private unavailable(cause?: unknown): Promise<never> {
    this.stats.unavailable += 1;
    return Promise.reject(new EngineUnavailable(cause));
  }

  /** Stops taking commands and brings the state back to the journal's durable seq. */
  private fail(): void {
    if (this.mode === 'recovering') return;
    this.mode = 'recovering';
    this.probeInFlight = false;
    this.stats.recoveries += 1;
    this.recovery = (async () => {
      const journal = this.opts.journal;
      // Every record in flight fails with the batch before it: wait until none is left.
      await journal.drain();
      const seq = journal.durableSeq;
      this.s = await this.opts.recover(seq);
      this.applied = seq;
      this.mode = 'probing';
    })()
      .catch((err: unknown) => {
        // Still refusing; the next command starts another recovery.
        this.mode = 'probing';
        this.applied = -1;
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.recovery = null;
      });
  }
}
