/**
 * Topic subscriptions of the core's readers, batched: every subscribe / unsubscribe asked for
 * during one synchronous run (one React commit mounting a screen's readers) goes to the socket
 * actor as the fewest events that keep their order, e.g. the trade screen's four readers send
 * ONE `socket.subscribe` with `[depth, trade, ticker, kline]` (one wire message, one recorded
 * intent), exactly as a single component subscribing its topics did.
 *
 * Invariant: the events sent, concatenated, list the same (type, topic) pairs in the order they
 * were added; consecutive pairs of the same type share one event.
 */

export type TopicEventType = 'socket.subscribe' | 'socket.unsubscribe';

/** Where the batched events go (the market socket actor). */
export interface TopicSink {
  send(event: { type: TopicEventType; topics: string[] }): void;
}

const microtask = (fn: () => void): void => queueMicrotask(fn);

export function createTopicBatcher(sink: TopicSink, defer: (fn: () => void) => void = microtask): { add(type: TopicEventType, topic: string): void; flush(): void } {
  let pending: { type: TopicEventType; topic: string }[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const ops = pending;
    pending = [];
    let i = 0;
    while (i < ops.length) {
      const type = ops[i]!.type;
      const topics: string[] = [];
      while (i < ops.length && ops[i]!.type === type) topics.push(ops[i++]!.topic);
      sink.send({ type, topics });
    }
  };
  return {
    add(type, topic) {
      pending.push({ type, topic });
      if (scheduled) return;
      scheduled = true;
      defer(flush);
    },
    flush,
  };
}
