/**
 * Words left out of the full-text index and of queries (English and German, the languages of the demo
 * corpus), so a question such as "What is the refund policy?" ranks by "refund" and "policy".
 */
export const STOP_WORDS: readonly string[] = [
  'a an and are as at be by can do does for from how i in is it its me my of on or our so that the this',
  'to was we what when where which who why will with you your',
  'am auf aus bei das dem den der des die ein eine einen einer es für ich ist im mit nach oder sie sind',
  'und von vom wie wir zu zum zur',
].flatMap((line) => line.split(' '));
