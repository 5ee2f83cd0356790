# A group given by a list of literal permutations spread over lines (S5).
G := Group([ (1,2,3,4,5),
             (1,2) ]);
