import { useCallback, useState } from 'react';
import { toast } from '../toast.ts';
import { errorMessage } from '../../../api/client.ts';
import type { MailCodePurpose } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { useCountdown } from './useCountdown.ts';

/** State of a Send code button outside the login flow (register, reset password). */
export interface MailCode {
  /** Seconds left before another code may be sent; 0 when available. */
  remaining: number;
  pending: boolean;
  /**
   * Sends a code for `purpose` to `email`; resolves true when the server accepted it. A 'security'
   * code sends no address at all: the server mails the session's own email (issue 26, Minor 16).
   */
  send: (email: string) => Promise<boolean>;
}

/**
 * POST /user/sendMailCode for register and reset (login's code goes through the session
 * machine). The server msg is shown as a toast either way; the 60 s countdown starts only on
 * success so a rejected send can be retried at once.
 */
export function useMailCode(purpose: MailCodePurpose): MailCode {
  const api = useApi();
  const { remaining, start } = useCountdown();
  const [pending, setPending] = useState(false);

  const send = useCallback(
    async (email: string): Promise<boolean> => {
      setPending(true);
      try {
        const env = await api.request<unknown>({
          method: 'POST',
          path: '/user/sendMailCode',
          body: purpose === 'security' ? { type: purpose } : { email: email.trim(), type: purpose },
        });
        toast.success(env.msg);
        start();
        return true;
      } catch (e) {
        toast.error(errorMessage(e));
        return false;
      } finally {
        setPending(false);
      }
    },
    [api, purpose, start],
  );

  return { remaining, pending, send };
}
