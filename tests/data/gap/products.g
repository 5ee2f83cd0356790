# Generators that are products, inverses and powers of named permutations.
R := (25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24);
U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);
Rinv := R^-1;
sune := R*U*R^-1*U*R*U^2*R^-1;
gens := [R, U, sune, U^2, Rinv];
