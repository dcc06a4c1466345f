/** The file name the sandbox gives the code: stack frames name it, which is how lines are found. */
export const CODE_FILE = 'moat-code.js';
