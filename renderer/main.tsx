import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createAppServices } from './app/services.js';
import { takeSignInCode } from './app/sign-in-code.js';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

// A sign-in link's code leaves the address bar before anything renders: it is spent on first use.
const signInLink = takeSignInCode(window.location);
if (signInLink) window.history.replaceState(window.history.state, '', signInLink.cleanPath);

createRoot(container).render(
  <StrictMode>
    <App services={createAppServices()} signInLink={signInLink} />
  </StrictMode>,
);
