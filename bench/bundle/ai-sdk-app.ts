// The same page's needs from the Vercel AI SDK: streamText with a tool (its tools run on the page).
import { streamText, tool } from 'ai';
import { z } from 'zod';

export { streamText, tool, z };
