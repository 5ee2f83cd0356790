# A GAP script around the puzzle: loops, functions, prints and strings with ';' in them.
U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);;
L := ( 9,11,16,14)(10,13,15,12)( 1,17,41,40)( 4,20,44,37)( 6,22,46,35);;
F := (17,19,24,22)(18,21,23,20)( 6,25,43,16)( 7,28,42,13)( 8,30,41,11);;
R := (25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24);;
B := (33,35,40,38)(34,37,39,36)( 3, 9,46,32)( 2,12,47,29)( 1,14,48,27);;
D := (41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40);;
moves := [U, L, F, R, B, D, U^-1, L^-1, F^-1, R^-1, B^-1, D^-1];;
cube := Group(U, L, F, R, B, D);
order := function(g)
    local k, x;
    k := 1; x := g;
    while x <> () do x := x * g; k := k + 1; od;
    return k;
end;
for m in moves do
    if order(m) <> 4 then Print("odd move; ", m, "\n"); fi;
od;
Print("""a string; with "quotes" and # in it""", '\'', ';', "\n");
Print("the cube has ", Size(cube), " positions\n");
