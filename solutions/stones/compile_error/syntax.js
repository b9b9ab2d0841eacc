const n = ;
