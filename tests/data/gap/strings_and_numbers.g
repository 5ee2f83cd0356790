# Lists of strings and numbers that are not generators, and a call with options.
generator_names := ["U", "R"];
u_face := [1, 3, 8, 6];
buffer := 42;
U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);
R := (25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24);
G := Group(U, R);
hom := EpimorphismFromFreeGroup(G : names := generator_names);
Size(G);
