/** A module and what it imports as one ES module's text (scripts/vite-bundled-text.ts). */
declare module '*?bundled' {
  const text: string;
  export default text;
}
