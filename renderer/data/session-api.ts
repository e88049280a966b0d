/** The signed-in session's API client, as the data layer's hooks reach it (the app provides it: data-provider.tsx). */
import { createContext, useContext } from 'react';
import type { ApiClient } from '../api/client.js';

export const SessionApiContext = createContext<ApiClient | null>(null);

export function useSessionApi(): ApiClient {
  const api = useContext(SessionApiContext);
  if (!api) throw new Error('a data hook outside <DataProvider>');
  return api;
}
