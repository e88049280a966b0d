import { createContext, useContext } from 'react';
import type { AppServices } from './services.js';

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <App>');
  return services;
}
