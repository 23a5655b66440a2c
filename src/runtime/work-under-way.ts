/**
 * Work started beside its caller (a post, a poll, a refusal, an investigation) and kept until it
 * settles, so shutdown and tests can wait for what is still running.
 */
export function createWorkUnderWay() {
  const underWay = new Set<Promise<unknown>>();
  return {
    /** Keeps `work` until it settles; returns it. */
    track<T>(work: Promise<T>): Promise<T> {
      underWay.add(work);
      void work.finally(() => underWay.delete(work));
      return work;
    },
    /** Resolves once everything tracked so far has settled (rejects as `Promise.all` does). */
    settled: () => Promise.all([...underWay]),
  };
}
