/** OSC 52: asks the terminal (also over ssh, in tmux with set-clipboard) to put text on the clipboard. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
