/** A module and what it imports as one classic script's text, an IIFE (scripts/vite-bundled-text.ts). */
declare module '*?bundled-script' {
  const text: string;
  export default text;
}
