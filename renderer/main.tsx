import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createAppServices } from './app/services.js';
import { rememberReturnTarget } from './app/routes.js';
import { takeSignInCode } from './app/sign-in-code.js';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

// A sign-in link's code leaves the address bar before anything renders: it is spent on first use.
// Its `next` page is shown once the code is redeemed, as a deep link interrupted by sign-in is.
const signInLink = takeSignInCode(window.location);
if (signInLink) {
  window.history.replaceState(window.history.state, '', signInLink.cleanPath);
  if (signInLink.next !== null) rememberReturnTarget(sessionStorage, signInLink.next);
}

createRoot(container).render(
  <StrictMode>
    <App services={createAppServices()} signInLink={signInLink} />
  </StrictMode>,
);
