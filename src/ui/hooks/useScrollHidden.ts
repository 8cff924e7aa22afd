import { useEffect, useState } from 'react';

/**
 * SPEC §2 followScroll: true while the user scrolls down (bar hidden), false once they scroll
 * up or are near the top. Ignores jitter below `threshold` px. Disabled → always false.
 */
export function useScrollHidden(enabled: boolean, threshold = 8): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return;
    }
    let lastY = window.scrollY;
    const onScroll = (): void => {
      const y = window.scrollY;
      if (Math.abs(y - lastY) < threshold) return;
      setHidden(y > lastY && y > 56);
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled, threshold]);
  return enabled && hidden;
}
