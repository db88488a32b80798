import { main } from '/work/main/src/cli/main.js';
await main(process.argv.slice(2));
