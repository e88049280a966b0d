/**
 * The window's request cache: one QueryClient per signed-in session (data-provider.tsx), so nothing of
 * one sign-in is ever shown to the next.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // An unreachable service is the connectivity monitor's and the banner's: it probes with backoff and,
        // once the service answers, every query loads again (the refresh signal). A refusal is final.
        retry: false,
        // The event stream keeps what is shown current; a focus or a reconnect of the machine says nothing new.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // The service is local: the browser's idea of being online (navigator.onLine) must not hold a request back.
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
