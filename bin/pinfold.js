#!/usr/bin/env node
// The installed command runs the compiled CLI (npm run build produces dist/).
import '../dist/main/cli/main.js';
