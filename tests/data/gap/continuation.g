# Long lines continued with a backslash, even inside a number.
U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(1\
1,35,27,19);
R := (25,27,32,30)(26,29,31,28)\
( 3,38,43,19)( 5,36,45,21)( 8,33,48,24);
twoGen := Group(U, R);
