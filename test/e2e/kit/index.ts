/**
 * The e2e test kit: a real `pinfold serve`, Chromium, sign-in, axe, screenshots and a desktop bridge
 * stand-in. A page's test file starts like test/e2e/shell.test.ts.
 */
export { axeCheck } from './a11y.js';
export { freeUser, upload, uploadAndPin, type TestUser } from './accounts.js';
export { bridgeCalls, stubBridge, type BridgeCall, type BridgeStub } from './bridge.js';
export { CHROMIUM, CHROMIUM_ARGS, launchBrowser, newContext } from './browser.js';
export { screenshots, SCREENSHOT_DIR } from './screenshots.js';
export { startService, type E2eService } from './service.js';
export { navigationNames, signIn, signInWithKey } from './session.js';
