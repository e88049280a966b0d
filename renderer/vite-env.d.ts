/// <reference types="vite/client" />
// Vite's client types: CSS imports (components import their own stylesheet) and import.meta.env.
