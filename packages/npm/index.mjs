import tiebreak from './index.cjs';

export const getLoadablePath = tiebreak.getLoadablePath;
export const load = tiebreak.load;
export default tiebreak;
